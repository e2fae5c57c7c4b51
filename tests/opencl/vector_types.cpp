// OpenCL vector types: float4 particles (position and velocity as float4, integrated with
// vector arithmetic), swizzles (.xyzw, .wzyx, .lo/.hi, .even/.odd, .s0123), vload4 and
// vstore4 on scalar arrays, geometric functions (dot, cross, length, normalize),
// component-wise comparisons giving -1/0 masks, select, and conversions between int4,
// float4, uchar4 and char16. Values are small dyadic numbers, so results that do not
// involve square roots are exact; length and normalize are checked with a tolerance.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

static const char* kSource = R"CLC(
__kernel void particles(__global float4* pos, __global float4* vel, float dt, int steps) {
  size_t i = get_global_id(0);
  float4 p = pos[i], v = vel[i];
  const float4 gravity = (float4)(0.0f, -0.5f, 0.0f, 0.0f);
  for (int s = 0; s < steps; ++s) {
    v += gravity * dt;
    p += v * dt;
    // Bounce off the floor y = 0: flip the y velocity (a mask from a comparison).
    if (p.y < 0.0f) {
      p.y = -p.y;
      v.y = -v.y;
    }
  }
  p.w = (float)i;  // the w component carries the particle's id
  pos[i] = p;
  vel[i] = v;
}

__kernel void swizzles(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  float4 a = in[i];
  float8 wide = (float8)(a, a.wzyx);
  out[4 * i + 0] = a.wzyx;
  out[4 * i + 1] = (float4)(a.xy * 2.0f, a.zw - 1.0f);
  out[4 * i + 2] = wide.even - wide.odd;
  float4 b = a;
  b.s13 = a.s02;
  b.hi = b.lo + (float2)(0.5f);
  out[4 * i + 3] = b;
}

__kernel void geometry(__global const float* xyz, __global float* out) {
  size_t i = get_global_id(0);
  float4 a = vload4(i, xyz);
  float4 b = vload4(i + 1, xyz);
  float4 a3 = (float4)(a.xyz, 0.0f), b3 = (float4)(b.xyz, 0.0f);
  float4 c = cross(a3, b3);
  vstore4((float4)(c.xyz, dot(a, b)), i, out);
  out[4 * get_global_size(0) + 2 * i] = length(a);
  out[4 * get_global_size(0) + 2 * i + 1] = dot(normalize(a3), normalize(a3));
}

__kernel void masks(__global const int4* a, __global const int4* b, __global int4* out,
                    __global uchar4* bytes, __global char16* chars) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  int4 lt = x < y;              // -1 where true
  out[3 * i + 0] = lt;
  out[3 * i + 1] = select(y, x, lt);  // x where x < y: the minimum
  float4 f = convert_float4(x) * 0.5f;
  out[3 * i + 2] = convert_int4_rtz(f) + (int4)(any(lt), all(lt), 0, 0);
  bytes[i] = convert_uchar4_sat(x);
  chars[i] = (char16)(as_char4(x.x), as_char4(y.y), convert_char4_sat(y), (char4)(1, 2, 3, 4));
}
)CLC";

int main() {
  try {
    constexpr int n = 2048;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Device device = devices.at(0);
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    cl::Program program(context, std::string(kSource));
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }
    int failed = 0;
    auto report = [&failed](const char* what, bool ok) {
      std::cout << what << ": " << (ok ? "PASS" : "FAIL") << "\n";
      failed += !ok;
    };

    // --- particles: dt = 1/8 and quarter-unit coordinates keep every step exact.
    std::vector<cl_float4> pos(n), vel(n);
    for (int i = 0; i < n; ++i) {
      pos[i] = {{(float)(i % 32), (float)(i % 17) + 1.0f, (float)(i / 32) * 0.25f, 0.0f}};
      vel[i] = {{(float)(i % 5 - 2), (float)(i % 3), 0.5f, 0.0f}};
    }
    std::vector<cl_float4> rpos = pos, rvel = vel;
    const float dt = 0.125f;
    const int steps = 20;
    for (int i = 0; i < n; ++i) {
      float* p = rpos[i].s;
      float* v = rvel[i].s;
      for (int s = 0; s < steps; ++s) {
        v[1] += -0.5f * dt;
        for (int c = 0; c < 4; ++c) p[c] += v[c] * dt;
        if (p[1] < 0.0f) p[1] = -p[1], v[1] = -v[1];
      }
      p[3] = (float)i;
    }
    cl::Buffer dpos(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_float4),
                    pos.data());
    cl::Buffer dvel(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_float4),
                    vel.data());
    cl::Kernel kp(program, "particles");
    kp.setArg(0, dpos);
    kp.setArg(1, dvel);
    kp.setArg(2, dt);
    kp.setArg(3, steps);
    queue.enqueueNDRangeKernel(kp, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
    queue.enqueueReadBuffer(dpos, CL_TRUE, 0, n * sizeof(cl_float4), pos.data());
    queue.enqueueReadBuffer(dvel, CL_TRUE, 0, n * sizeof(cl_float4), vel.data());
    bool ok = std::memcmp(pos.data(), rpos.data(), n * sizeof(cl_float4)) == 0 &&
              std::memcmp(vel.data(), rvel.data(), n * sizeof(cl_float4)) == 0;
    double sy = 0;
    for (int i = 0; i < n; ++i) sy += pos[i].s[1];
    std::cout << "particle 7: (" << pos[7].s[0] << ", " << pos[7].s[1] << ", " << pos[7].s[2]
              << ", " << pos[7].s[3] << ") sum of y=" << sy << "\n";
    report("float4 particles", ok);

    // --- swizzles
    std::vector<cl_float4> in(n), out(4 * n);
    for (int i = 0; i < n; ++i)
      in[i] = {{(float)i, (float)(i % 7) - 3.0f, 0.25f * (float)(i % 9), (float)(-i)}};
    cl::Buffer din(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_float4),
                   in.data());
    cl::Buffer dout(context, CL_MEM_WRITE_ONLY, 4 * n * sizeof(cl_float4));
    cl::Kernel ks(program, "swizzles");
    ks.setArg(0, din);
    ks.setArg(1, dout);
    queue.enqueueNDRangeKernel(ks, cl::NullRange, cl::NDRange(n), cl::NDRange(32));
    queue.enqueueReadBuffer(dout, CL_TRUE, 0, out.size() * sizeof(cl_float4), out.data());
    ok = true;
    for (int i = 0; i < n; ++i) {
      const float* a = in[i].s;
      float wide[8] = {a[0], a[1], a[2], a[3], a[3], a[2], a[1], a[0]};
      float e[4][4] = {{a[3], a[2], a[1], a[0]},
                       {a[0] * 2, a[1] * 2, a[2] - 1, a[3] - 1},
                       {wide[0] - wide[1], wide[2] - wide[3], wide[4] - wide[5], wide[6] - wide[7]},
                       {a[0], a[0], a[0] + 0.5f, a[0] + 0.5f}};
      // b = a; b.s13 = a.s02 -> (a0, a0, a2, a2); b.hi = b.lo + 0.5 -> (a0, a0, a0+.5, a0+.5)
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < 4; ++c) ok = ok && out[4 * i + k].s[c] == e[k][c];
    }
    report("swizzles (.wzyx .xy .zw .even .odd .s13 .hi .lo)", ok);

    // --- geometry
    std::vector<float> xyz(4 * (n + 1)), geo(6 * n);
    for (int i = 0; i < 4 * (n + 1); ++i) xyz[i] = (float)((i * 37) % 11) - 5.0f;
    cl::Buffer dxyz(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, xyz.size() * sizeof(float),
                    xyz.data());
    cl::Buffer dgeo(context, CL_MEM_WRITE_ONLY, geo.size() * sizeof(float));
    cl::Kernel kg(program, "geometry");
    kg.setArg(0, dxyz);
    kg.setArg(1, dgeo);
    queue.enqueueNDRangeKernel(kg, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
    queue.enqueueReadBuffer(dgeo, CL_TRUE, 0, geo.size() * sizeof(float), geo.data());
    bool exact_ok = true, approx_ok = true;
    for (int i = 0; i < n; ++i) {
      const float* a = &xyz[4 * i];
      const float* b = &xyz[4 * i + 4];
      float c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                    a[0] * b[1] - a[1] * b[0]};
      float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
      for (int k = 0; k < 3; ++k) exact_ok = exact_ok && geo[4 * i + k] == c[k];
      exact_ok = exact_ok && geo[4 * i + 3] == d;
      double len = std::sqrt((double)a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
      approx_ok = approx_ok && std::fabs(geo[4 * n + 2 * i] - len) <= 1e-5 * len + 1e-6;
      bool zero3 = a[0] == 0 && a[1] == 0 && a[2] == 0;  // normalize(0) is 0
      float nn = geo[4 * n + 2 * i + 1];
      approx_ok = approx_ok && (zero3 ? nn == 0.0f : std::fabs(nn - 1.0f) <= 1e-5f);
    }
    std::cout << "cross(v0, v1)=(" << geo[0] << ", " << geo[1] << ", " << geo[2]
              << ") dot=" << geo[3] << "\n";
    report("vload4, vstore4, cross, dot", exact_ok);
    report("length, normalize (tolerance 1e-5)", approx_ok);

    // --- masks and conversions
    std::vector<cl_int4> ia(n), ib(n), iout(3 * n);
    std::vector<cl_uchar4> bytes(n);
    std::vector<cl_char16> chars(n);
    std::uint32_t seed = 5;
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c) {
        seed = seed * 1103515245u + 12345u;
        ia[i].s[c] = (int)(seed >> 16) % 600 - 300;
        seed = seed * 1103515245u + 12345u;
        ib[i].s[c] = (int)(seed >> 16) % 600 - 300;
      }
    cl::Buffer da(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int4), ia.data());
    cl::Buffer db(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int4), ib.data());
    cl::Buffer dio(context, CL_MEM_WRITE_ONLY, 3 * n * sizeof(cl_int4));
    cl::Buffer dbytes(context, CL_MEM_WRITE_ONLY, n * sizeof(cl_uchar4));
    cl::Buffer dchars(context, CL_MEM_WRITE_ONLY, n * sizeof(cl_char16));
    cl::Kernel km(program, "masks");
    km.setArg(0, da);
    km.setArg(1, db);
    km.setArg(2, dio);
    km.setArg(3, dbytes);
    km.setArg(4, dchars);
    queue.enqueueNDRangeKernel(km, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
    queue.enqueueReadBuffer(dio, CL_TRUE, 0, iout.size() * sizeof(cl_int4), iout.data());
    queue.enqueueReadBuffer(dbytes, CL_TRUE, 0, n * sizeof(cl_uchar4), bytes.data());
    queue.enqueueReadBuffer(dchars, CL_TRUE, 0, n * sizeof(cl_char16), chars.data());
    bool masks_ok = true, conv_ok = true;
    std::uint32_t hash = 0;
    for (int i = 0; i < n; ++i) {
      const int* x = ia[i].s;
      const int* y = ib[i].s;
      bool any = false, all = true;
      for (int c = 0; c < 4; ++c) {
        bool lt = x[c] < y[c];
        any = any || lt;
        all = all && lt;
        masks_ok = masks_ok && iout[3 * i].s[c] == (lt ? -1 : 0) &&
                   iout[3 * i + 1].s[c] == std::min(x[c], y[c]);
        conv_ok = conv_ok && bytes[i].s[c] == std::clamp(x[c], 0, 255);
      }
      for (int c = 0; c < 4; ++c) {
        int e = (int)std::trunc(x[c] * 0.5f) + (c == 0 ? any : c == 1 ? all : 0);
        conv_ok = conv_ok && iout[3 * i + 2].s[c] == e;
      }
      signed char e16[16];
      std::memcpy(e16, &x[0], 4);  // as_char4 of a little-endian int
      std::memcpy(e16 + 4, &y[1], 4);
      for (int c = 0; c < 4; ++c) e16[8 + c] = (signed char)std::clamp(y[c], -128, 127);
      for (int c = 0; c < 4; ++c) e16[12 + c] = (signed char)(c + 1);
      conv_ok = conv_ok && std::memcmp(e16, chars[i].s, 16) == 0;
      for (int c = 0; c < 4; ++c)
        hash = hash * 31u + (std::uint32_t)iout[3 * i + 2].s[c] + bytes[i].s[c];
    }
    report("comparisons, select, any, all", masks_ok);
    report("convert_float4, convert_int4_rtz, convert_uchar4_sat, as_char4, char16", conv_ok);
    std::cout << "conversion hash=" << hash << "\n";

    std::cout << (failed ? "FAIL" : "PASS") << "\n";
    return failed ? 1 : 0;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
