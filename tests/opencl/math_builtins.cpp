// Float math built-ins against the host: each function runs on 1024 inputs from its usual
// domain; the host computes the exact result in double precision and measures the error
// in ulps of the float result. A function passes when the error stays within the bound of
// the OpenCL 1.2 specification (section 7.4, full profile); exact functions must match
// bit for bit. Only PASS/FAIL is printed: implementations may round differently within
// the bounds.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

struct Function {
  const char* name;
  const char* expr;  // in OpenCL C, of a (and b)
  std::function<double(double, double)> ref;
  double ulps;  // the spec's bound; 0 = exact
  double a_lo, a_hi, b_lo, b_hi;
};

static const std::vector<Function>& functions() {
  static const std::vector<Function> f = {
      {"add", "a + b", [](double a, double b) { return a + b; }, 0, -1e3, 1e3, -1e3, 1e3},
      {"mul", "a * b", [](double a, double b) { return a * b; }, 0, -1e3, 1e3, -1e3, 1e3},
      {"div", "a / b", [](double a, double b) { return a / b; }, 2.5, -1e3, 1e3, 0.5, 100},
      {"sqrt", "sqrt(a)", [](double a, double) { return std::sqrt(a); }, 3, 0, 1e4, 0, 0},
      {"rsqrt", "rsqrt(a)", [](double a, double) { return 1 / std::sqrt(a); }, 2, 1e-3, 1e4, 0, 0},
      {"cbrt", "cbrt(a)", [](double a, double) { return std::cbrt(a); }, 2, -1e3, 1e3, 0, 0},
      {"exp", "exp(a)", [](double a, double) { return std::exp(a); }, 3, -20, 20, 0, 0},
      {"exp2", "exp2(a)", [](double a, double) { return std::exp2(a); }, 3, -30, 30, 0, 0},
      {"exp10", "exp10(a)", [](double a, double) { return std::pow(10.0, a); }, 3, -8, 8, 0, 0},
      {"expm1", "expm1(a)", [](double a, double) { return std::expm1(a); }, 3, -5, 5, 0, 0},
      {"log", "log(a)", [](double a, double) { return std::log(a); }, 3, 1e-3, 1e4, 0, 0},
      {"log2", "log2(a)", [](double a, double) { return std::log2(a); }, 3, 1e-3, 1e4, 0, 0},
      {"log10", "log10(a)", [](double a, double) { return std::log10(a); }, 3, 1e-3, 1e4, 0, 0},
      {"log1p", "log1p(a)", [](double a, double) { return std::log1p(a); }, 2, -0.5, 100, 0, 0},
      {"pow", "pow(a, b)", [](double a, double b) { return std::pow(a, b); }, 16, 0.1, 10, -5, 5},
      {"pown", "pown(a, (int)b)", [](double a, double b) { return std::pow(a, (int)b); }, 16, -4, 4,
       -6, 6},
      {"sin", "sin(a)", [](double a, double) { return std::sin(a); }, 4, -50, 50, 0, 0},
      {"cos", "cos(a)", [](double a, double) { return std::cos(a); }, 4, -50, 50, 0, 0},
      {"tan", "tan(a)", [](double a, double) { return std::tan(a); }, 5, -1.5, 1.5, 0, 0},
      {"asin", "asin(a)", [](double a, double) { return std::asin(a); }, 4, -1, 1, 0, 0},
      {"acos", "acos(a)", [](double a, double) { return std::acos(a); }, 4, -1, 1, 0, 0},
      {"atan", "atan(a)", [](double a, double) { return std::atan(a); }, 5, -100, 100, 0, 0},
      {"atan2", "atan2(a, b)", [](double a, double b) { return std::atan2(a, b); }, 6, -10, 10, -10,
       10},
      {"sinh", "sinh(a)", [](double a, double) { return std::sinh(a); }, 4, -10, 10, 0, 0},
      {"cosh", "cosh(a)", [](double a, double) { return std::cosh(a); }, 4, -10, 10, 0, 0},
      {"tanh", "tanh(a)", [](double a, double) { return std::tanh(a); }, 5, -5, 5, 0, 0},
      {"asinh", "asinh(a)", [](double a, double) { return std::asinh(a); }, 4, -100, 100, 0, 0},
      {"acosh", "acosh(a)", [](double a, double) { return std::acosh(a); }, 4, 1, 100, 0, 0},
      {"atanh", "atanh(a)", [](double a, double) { return std::atanh(a); }, 5, -0.99, 0.99, 0, 0},
      {"hypot", "hypot(a, b)", [](double a, double b) { return std::hypot(a, b); }, 4, -1e3, 1e3,
       -1e3, 1e3},
      {"erf", "erf(a)", [](double a, double) { return std::erf(a); }, 16, -3, 3, 0, 0},
      {"erfc", "erfc(a)", [](double a, double) { return std::erfc(a); }, 16, -2, 3, 0, 0},
      {"tgamma", "tgamma(a)", [](double a, double) { return std::tgamma(a); }, 16, 0.5, 8, 0, 0},
      {"fma", "fma(a, b, a - b)",
       [](double a, double b) {
         // In float, as the kernel does: one rounding of the product-sum (fmaf), after the
         // rounded difference.
         float fa = (float)a, fb = (float)b, c = fa - fb;
         return (double)std::fmaf(fa, fb, c);
       },
       0, -100, 100, -100, 100},
      {"fmod", "fmod(a, b)", [](double a, double b) { return std::fmod(a, b); }, 0, -1e3, 1e3, 0.5,
       50},
      {"remainder", "remainder(a, b)", [](double a, double b) { return std::remainder(a, b); }, 0,
       -1e3, 1e3, 0.5, 50},
      {"floor", "floor(a)", [](double a, double) { return std::floor(a); }, 0, -1e3, 1e3, 0, 0},
      {"ceil", "ceil(a)", [](double a, double) { return std::ceil(a); }, 0, -1e3, 1e3, 0, 0},
      {"trunc", "trunc(a)", [](double a, double) { return std::trunc(a); }, 0, -1e3, 1e3, 0, 0},
      {"round", "round(a)", [](double a, double) { return std::round(a); }, 0, -1e3, 1e3, 0, 0},
      {"rint", "rint(a)", [](double a, double) { return std::nearbyint(a); }, 0, -1e3, 1e3, 0, 0},
      {"fabs", "fabs(a)", [](double a, double) { return std::fabs(a); }, 0, -1e3, 1e3, 0, 0},
      {"fmin", "fmin(a, b)", [](double a, double b) { return std::fmin(a, b); }, 0, -1e3, 1e3, -1e3,
       1e3},
      {"fmax", "fmax(a, b)", [](double a, double b) { return std::fmax(a, b); }, 0, -1e3, 1e3, -1e3,
       1e3},
      {"fdim", "fdim(a, b)", [](double a, double b) { return std::fdim(a, b); }, 0, -1e3, 1e3, -1e3,
       1e3},
      {"copysign", "copysign(a, b)", [](double a, double b) { return std::copysign(a, b); }, 0,
       -1e3, 1e3, -1, 1},
      {"ldexp", "ldexp(a, (int)b)", [](double a, double b) { return std::ldexp(a, (int)b); }, 0,
       -1e3, 1e3, -20, 20},
      {"clamp", "clamp(a, -10.0f, b)",
       [](double a, double b) { return std::fmin(std::fmax(a, -10.0), b); }, 0, -100, 100, -5, 50},
      {"step", "step(b, a)", [](double a, double b) { return a < b ? 0.0 : 1.0; }, 0, -10, 10, -10,
       10},
      {"sign", "sign(a)", [](double a, double) { return a > 0   ? 1.0
                                                        : a < 0 ? -1.0
                                                                : 0.0; }, 0, -10,
       10, 0, 0},
      {"degrees", "degrees(a)", [](double a, double) { return a * (180.0 / M_PI); }, 2, -10, 10, 0,
       0},
  };
  return f;
}

// The size of one ulp of a float near x (the spacing of floats in x's binade).
static double ulp(double x) {
  x = std::fabs(x);
  if (x < FLT_MIN) return std::ldexp(1.0, -149);
  int e;
  std::frexp(x, &e);
  return std::ldexp(1.0, e - 24);
}

int main() {
  try {
    constexpr int n = 1024;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_DEFAULT, &devices);
    cl::Device device = devices.at(0);
    cl::Context context(device);
    cl::CommandQueue queue(context, device);

    // One kernel per function, generated from the table.
    std::string source;
    for (const Function& f : functions())
      source += std::string("__kernel void k_") + f.name +
                "(__global const float* x, __global const float* y, __global float* r) {\n"
                "  size_t i = get_global_id(0);\n  float a = x[i], b = y[i];\n  r[i] = " +
                f.expr + ";\n}\n";
    cl::Program program(context, source);
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }

    cl::Buffer dx(context, CL_MEM_READ_ONLY, n * sizeof(float));
    cl::Buffer dy(context, CL_MEM_READ_ONLY, n * sizeof(float));
    cl::Buffer dr(context, CL_MEM_WRITE_ONLY, n * sizeof(float));
    std::vector<float> x(n), y(n), r(n);
    std::uint32_t seed = 1;
    auto uniform = [&seed](double lo, double hi) {
      seed = seed * 1664525u + 1013904223u;
      return (float)(lo + (hi - lo) * ((seed >> 8) / 16777216.0));
    };
    int failed = 0;
    for (const Function& f : functions()) {
      for (int i = 0; i < n; ++i) {
        x[i] = uniform(f.a_lo, f.a_hi);
        y[i] = uniform(f.b_lo, f.b_hi);
      }
      // A few exact special points at the front.
      if (f.a_lo <= 0 && f.a_hi >= 0) x[0] = 0.0f;
      if (f.a_lo <= 1 && f.a_hi >= 1) x[1] = 1.0f;
      if (f.a_lo <= -2.5 && f.a_hi >= 2.5) x[2] = -2.5f, x[3] = 2.5f, x[4] = 0.5f;
      if (f.b_lo != f.b_hi && f.b_lo <= 2 && f.b_hi >= 2) y[5] = 2.0f;
      if (std::string(f.name) == "pown" || std::string(f.name) == "ldexp")
        for (float& v : y) v = std::trunc(v);
      queue.enqueueWriteBuffer(dx, CL_FALSE, 0, n * sizeof(float), x.data());
      queue.enqueueWriteBuffer(dy, CL_FALSE, 0, n * sizeof(float), y.data());
      cl::Kernel k(program, (std::string("k_") + f.name).c_str());
      k.setArg(0, dx);
      k.setArg(1, dy);
      k.setArg(2, dr);
      queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
      queue.enqueueReadBuffer(dr, CL_TRUE, 0, n * sizeof(float), r.data());
      int bad = 0;
      double worst = 0;
      int worst_i = 0;
      for (int i = 0; i < n; ++i) {
        double exact = f.ref(x[i], y[i]);
        double err;
        if (f.ulps == 0) {
          err = r[i] == (float)exact && std::signbit(r[i]) == std::signbit((float)exact) ? 0 : 1e9;
        } else {
          err = std::fabs((double)r[i] - exact) / ulp(exact);
        }
        if (!(err <= f.ulps)) ++bad;
        if (!(err <= worst)) worst = err, worst_i = i;
      }
      std::cout << f.name << ": " << (bad ? "FAIL" : "PASS") << "\n";
      if (bad) {
        std::cerr << f.name << ": " << bad << " results off; worst " << worst
                  << " ulp at a=" << x[worst_i] << " b=" << y[worst_i] << ": got " << r[worst_i]
                  << ", exact " << f.ref(x[worst_i], y[worst_i]) << "\n";
        ++failed;
      }
    }
    std::cout << functions().size() << " functions, " << failed << " failed\n";
    std::cout << (failed ? "FAIL" : "PASS") << "\n";
    return failed ? 1 : 0;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
