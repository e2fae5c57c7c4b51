// Structs: kernel arguments passed by value (with a float4 member, with char/short
// members and padding, nested, with an array member), arrays of structs in global memory,
// struct values returned from helper functions, and a reduction over structs in local
// memory. The host declares the same layouts (static_asserts document them).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

static const char* kSource = R"CLC(
typedef struct { float scale; int offset; uint flags; float4 bias; } Params;
typedef struct { char tag; short count; int value; } Small;
typedef struct { int lo, hi; } Range;
typedef struct { Range range; float weight; uchar kind; } Job;
typedef struct { float c[4]; int n; } Poly;
typedef struct { float2 pos; int id; uint flags; } Particle;
typedef struct { int min, max, sum, count; } Stats;

float poly_eval(Poly p, float x) {
  float r = 0.0f;
  for (int k = p.n - 1; k >= 0; --k) r = r * x + p.c[k];
  return r;
}

Stats stats_of(int v) {
  Stats s = {v, v, v, 1};
  return s;
}

Stats merge(Stats a, Stats b) {
  Stats s;
  s.min = min(a.min, b.min);
  s.max = max(a.max, b.max);
  s.sum = a.sum + b.sum;
  s.count = a.count + b.count;
  return s;
}

__kernel void update(__global Particle* ps, Params p, Small sm, Job job, Poly poly,
                     __global float* values) {
  size_t i = get_global_id(0);
  Particle q = ps[i];
  if (q.id >= job.range.lo && q.id < job.range.hi) {
    q.pos = q.pos * p.scale + p.bias.xy;
    q.flags |= p.flags;
  } else {
    q.pos += p.bias.zw;
  }
  q.id += p.offset + sm.tag * sm.count + sm.value;
  ps[i] = q;
  values[i] = poly_eval(poly, q.pos.x) * job.weight + (float)job.kind;
}

__kernel void group_stats(__global const Particle* ps, __global Stats* out) {
  __local Stats scratch[64];
  size_t lid = get_local_id(0);
  scratch[lid] = stats_of(ps[get_global_id(0)].id);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s) scratch[lid] = merge(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
)CLC";

struct Params {
  cl_float scale;
  cl_int offset;
  cl_uint flags;
  cl_float4 bias;
};
static_assert(sizeof(Params) == 32 && offsetof(Params, bias) == 16, "float4 is 16-byte aligned");
struct Small {
  cl_char tag;
  cl_short count;
  cl_int value;
};
static_assert(sizeof(Small) == 8 && offsetof(Small, count) == 2 && offsetof(Small, value) == 4);
struct Range {
  cl_int lo, hi;
};
struct Job {
  Range range;
  cl_float weight;
  cl_uchar kind;
};
static_assert(sizeof(Job) == 16);
struct Poly {
  cl_float c[4];
  cl_int n;
};
static_assert(sizeof(Poly) == 20);
struct Particle {
  cl_float2 pos;
  cl_int id;
  cl_uint flags;
};
static_assert(sizeof(Particle) == 16);
struct Stats {
  cl_int min, max, sum, count;
};

int main() {
  try {
    constexpr int n = 4096, group = 64;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_DEFAULT, &devices);
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

    std::vector<Particle> ps(n);
    for (int i = 0; i < n; ++i)
      ps[i] = {
          {{(float)(i % 64) * 0.5f, (float)(i / 64) * 0.25f}}, (i * 13) % n, (cl_uint)i & 0xf0u};
    Params p = {2.0f, 7, 0x100u, {{1.0f, -2.0f, 0.5f, 0.25f}}};
    Small sm = {-3, 5, 1000};
    Job job = {{1000, 3000}, 0.5f, 9};
    Poly poly = {{1.0f, -0.5f, 0.25f, 0.0f}, 3};

    cl::Buffer dps(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(Particle),
                   ps.data());
    cl::Buffer dvalues(context, CL_MEM_WRITE_ONLY, n * sizeof(float));
    cl::Buffer dstats(context, CL_MEM_WRITE_ONLY, n / group * sizeof(Stats));
    cl::Kernel update(program, "update");
    update.setArg(0, dps);
    update.setArg(1, p);
    update.setArg(2, sm);
    update.setArg(3, job);
    update.setArg(4, poly);
    update.setArg(5, dvalues);
    queue.enqueueNDRangeKernel(update, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
    cl::Kernel gs(program, "group_stats");
    gs.setArg(0, dps);
    gs.setArg(1, dstats);
    queue.enqueueNDRangeKernel(gs, cl::NullRange, cl::NDRange(n), cl::NDRange(group));

    std::vector<Particle> out(n);
    std::vector<float> values(n);
    std::vector<Stats> stats(n / group);
    queue.enqueueReadBuffer(dps, CL_FALSE, 0, n * sizeof(Particle), out.data());
    queue.enqueueReadBuffer(dvalues, CL_FALSE, 0, n * sizeof(float), values.data());
    queue.enqueueReadBuffer(dstats, CL_FALSE, 0, stats.size() * sizeof(Stats), stats.data());
    queue.finish();

    // Host reference (all values are dyadic: exact in float).
    bool ok_ps = true, ok_values = true, ok_stats = true;
    std::vector<Particle> ref = ps;
    for (int i = 0; i < n; ++i) {
      Particle& q = ref[i];
      if (q.id >= job.range.lo && q.id < job.range.hi) {
        q.pos.s[0] = q.pos.s[0] * p.scale + p.bias.s[0];
        q.pos.s[1] = q.pos.s[1] * p.scale + p.bias.s[1];
        q.flags |= p.flags;
      } else {
        q.pos.s[0] += p.bias.s[2];
        q.pos.s[1] += p.bias.s[3];
      }
      q.id += p.offset + sm.tag * sm.count + sm.value;
      float x = q.pos.s[0], r = 0.0f;
      for (int k = poly.n - 1; k >= 0; --k) r = r * x + poly.c[k];
      float v = r * job.weight + (float)job.kind;
      ok_ps = ok_ps && std::memcmp(&q, &out[i], sizeof(Particle)) == 0;
      ok_values = ok_values && values[i] == v;
    }
    for (int g = 0; g < n / group; ++g) {
      Stats s = {ref[g * group].id, ref[g * group].id, 0, 0};
      for (int i = g * group; i < (g + 1) * group; ++i) {
        s.min = std::min(s.min, ref[i].id);
        s.max = std::max(s.max, ref[i].id);
        s.sum += ref[i].id;
        s.count += 1;
      }
      ok_stats = ok_stats && s.min == stats[g].min && s.max == stats[g].max &&
                 s.sum == stats[g].sum && s.count == stats[g].count;
    }
    std::uint32_t hash = 0;
    for (int i = 0; i < n; ++i) hash = hash * 31u + (std::uint32_t)out[i].id + out[i].flags;
    std::cout << "particle 100: pos=(" << out[100].pos.s[0] << ", " << out[100].pos.s[1]
              << ") id=" << out[100].id << " flags=0x" << std::hex << out[100].flags << std::dec
              << " value=" << values[100] << "\n";
    std::cout << "group 3 stats: min=" << stats[3].min << " max=" << stats[3].max
              << " sum=" << stats[3].sum << " count=" << stats[3].count << "\n";
    std::cout << "particles hash=" << hash << "\n";
    std::cout << "structs by value (Params, Small, Job, Poly): " << (ok_ps ? "PASS" : "FAIL")
              << "\n";
    std::cout << "struct passed to a helper function: " << (ok_values ? "PASS" : "FAIL") << "\n";
    std::cout << "structs returned by functions, in local memory: " << (ok_stats ? "PASS" : "FAIL")
              << "\n";
    bool ok = ok_ps && ok_values && ok_stats;
    std::cout << (ok ? "PASS" : "FAIL") << "\n";
    return ok ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
