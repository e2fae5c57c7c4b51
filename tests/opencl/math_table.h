// The harness of the math built-in checks (math_builtins.cpp for float,
// math_builtins_double.cpp for double): one kernel per row of a table of functions, each run
// on generated inputs; the host computes the result in a wider type (Ref) and measures the
// error in ulps of T. A function passes when the error stays within the bound of the
// OpenCL 1.2 specification (section 7.4, full profile); exact functions must match bit for
// bit (NaN for NaN). Only PASS/FAIL goes to stdout, which must equal pocl's; the largest
// error of each function goes to stderr: implementations may round differently within the
// bounds.
#pragma once

#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

template <typename Ref>
struct MathFunction {
  const char* name;
  const char* expr;  // in OpenCL C, of a (and b)
  std::function<Ref(Ref, Ref)> ref;
  double ulps;  // the spec's bound; 0 = exact
  double a_lo, a_hi, b_lo, b_hi;
};

template <typename T, typename Ref>
struct MathCheck {
  const char* type;     // the OpenCL C name of T
  std::string prelude;  // source before the kernels (an extension pragma)
  int inputs_per_function;
  // Why the device cannot run the check, or "" when it can.
  std::function<std::string(const cl::Device&)> unsupported;
  // Fills x and y with the inputs of one function.
  std::function<void(const MathFunction<Ref>&, std::vector<T>& x, std::vector<T>& y)> inputs;
  // Inputs whose result is not checked (a pole); none when empty.
  std::function<bool(const MathFunction<Ref>&, T a)> unchecked;
};

// The size of one ulp of T near x (the spacing of T's values in x's binade).
template <typename T, typename Ref>
Ref ulp_of(Ref x) {
  using limits = std::numeric_limits<T>;
  x = std::fabs(x);
  if (x < limits::min()) return std::ldexp(Ref(1), limits::min_exponent - limits::digits);
  int e;
  std::frexp(x, &e);
  return std::ldexp(Ref(1), e - limits::digits);
}

// The error of result r against the exact value, in ulps; 1e9 for a wrong NaN, infinity or
// inexact result of an exact function.
template <typename T, typename Ref>
Ref ulp_error(const MathFunction<Ref>& f, T r, Ref exact) {
  if (std::isnan(exact) || std::isnan(r)) return std::isnan(exact) && std::isnan(r) ? 0 : 1e9;
  if (f.ulps == 0) {
    const T e = static_cast<T>(exact);
    return r == e && std::signbit(r) == std::signbit(e) ? 0 : 1e9;
  }
  if (std::isinf(exact) || std::fabs(exact) > std::numeric_limits<T>::max())
    return std::isinf(r) && std::signbit(r) == std::signbit(exact) ? 0 : 1e9;
  return std::fabs(static_cast<Ref>(r) - exact) / ulp_of<T>(exact);
}

// Runs every function of the table on the default device of the first platform; the exit
// status of the program.
template <typename T, typename Ref>
int run_math_check(const std::vector<MathFunction<Ref>>& functions,
                   const MathCheck<T, Ref>& check) {
  try {
    const int n = check.inputs_per_function;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_DEFAULT, &devices);
    cl::Device device = devices.at(0);
    if (check.unsupported) {
      const std::string why = check.unsupported(device);
      if (!why.empty()) {
        std::cout << why << "\nFAIL\n";
        return 1;
      }
    }
    cl::Context context(device);
    cl::CommandQueue queue(context, device);

    const std::string type = check.type;
    std::string source = check.prelude;
    for (const auto& f : functions)
      source += "__kernel void k_" + std::string(f.name) + "(__global const " + type +
                "* x, __global const " + type + "* y, __global " + type +
                "* r) {\n  size_t i = get_global_id(0);\n  " + type + " a = x[i], b = y[i];\n" +
                "  r[i] = " + f.expr + ";\n}\n";
    cl::Program program(context, source);
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }

    cl::Buffer dx(context, CL_MEM_READ_ONLY, n * sizeof(T));
    cl::Buffer dy(context, CL_MEM_READ_ONLY, n * sizeof(T));
    cl::Buffer dr(context, CL_MEM_WRITE_ONLY, n * sizeof(T));
    std::vector<T> x(n), y(n), r(n);
    int failed = 0;
    for (const auto& f : functions) {
      check.inputs(f, x, y);
      queue.enqueueWriteBuffer(dx, CL_FALSE, 0, n * sizeof(T), x.data());
      queue.enqueueWriteBuffer(dy, CL_FALSE, 0, n * sizeof(T), y.data());
      cl::Kernel k(program, ("k_" + std::string(f.name)).c_str());
      k.setArg(0, dx);
      k.setArg(1, dy);
      k.setArg(2, dr);
      queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
      queue.enqueueReadBuffer(dr, CL_TRUE, 0, n * sizeof(T), r.data());
      int bad = 0;
      Ref worst = 0;
      int worst_i = 0;
      for (int i = 0; i < n; ++i) {
        if (check.unchecked && check.unchecked(f, x[i])) continue;
        const Ref err = ulp_error(f, r[i], f.ref(x[i], y[i]));
        if (!(err <= f.ulps)) ++bad;
        if (!(err <= worst)) worst = err, worst_i = i;
      }
      std::cout << f.name << ": " << (bad ? "FAIL" : "PASS") << "\n";
      std::cerr << f.name << ": worst " << static_cast<double>(worst) << " ulp\n";
      if (bad) {
        std::cerr << f.name << ": " << bad << " results off; worst at a=" << x[worst_i]
                  << " b=" << y[worst_i] << ": got " << r[worst_i] << ", exact "
                  << static_cast<double>(f.ref(x[worst_i], y[worst_i])) << "\n";
        ++failed;
      }
    }
    std::cout << functions.size() << " functions, " << failed << " failed\n";
    std::cout << (failed ? "FAIL" : "PASS") << "\n";
    return failed ? 1 : 0;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
