// Double math built-ins (cl_khr_fp64) against the host: each function runs on 2048 inputs
// from its domain (and for sin/cos/tan also huge arguments, where the argument reduction
// needs hundreds of bits of 2/pi); the host computes the result in long double and
// measures the error in ulps of the double result. A function passes when the error stays
// within OpenCL 1.2's bound for double (section 7.4); exact functions must match bit for
// bit (NaN for NaN). Only PASS/FAIL is printed (the largest error goes to stderr):
// implementations may round differently within the bounds.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using LD = long double;

struct Function {
  const char* name;
  const char* expr;  // in OpenCL C, of a (and b)
  std::function<LD(LD, LD)> ref;
  double ulps;  // the spec's bound; 0 = exact
  double a_lo, a_hi, b_lo, b_hi;
};

static const LD kPi = 3.141592653589793238462643383279502884L;

// sin(pi a) and cos(pi a) with an exact reduction: a = j/2 + t, |t| <= 1/4 (t exact), so
// that pi t is accurate also where the result is tiny.
static LD ref_trigpi(LD a, bool cosine) {
  LD j = std::nearbyint(2 * std::fmod(a, 2.0L));
  LD t = std::fmod(a, 2.0L) - j / 2;
  int q = ((int)j % 4 + 4 + (cosine ? 1 : 0)) % 4;
  LD v = (q & 1) ? std::cos(kPi * t) : std::sin(kPi * t);
  return (q & 2) ? -v : v;
}

static const std::vector<Function>& functions() {
  static const std::vector<Function> f = {
      {"add", "a + b", [](LD a, LD b) { return (double)a + (double)b; }, 0, -1e3, 1e3, -1e3, 1e3},
      {"div", "a / b", [](LD a, LD b) { return (double)a / (double)b; }, 0, -1e3, 1e3, 0.5, 100},
      {"sqrt", "sqrt(a)", [](LD a, LD) { return std::sqrt((double)a); }, 0, 0, 1e300, 0, 0},
      {"fma", "fma(a, b, a)", [](LD a, LD b) { return std::fma((double)a, (double)b, (double)a); },
       0, -1e3, 1e3, -1e3, 1e3},
      {"rsqrt", "rsqrt(a)", [](LD a, LD) { return 1 / std::sqrt(a); }, 2, 1e-300, 1e300, 0, 0},
      {"cbrt", "cbrt(a)", [](LD a, LD) { return std::cbrt(a); }, 2, -1e300, 1e300, 0, 0},
      {"exp", "exp(a)", [](LD a, LD) { return std::exp(a); }, 3, -745, 709, 0, 0},
      {"exp2", "exp2(a)", [](LD a, LD) { return std::exp2(a); }, 3, -1074, 1023, 0, 0},
      {"exp10", "exp10(a)", [](LD a, LD) { return std::pow(10.0L, a); }, 3, -307, 308, 0, 0},
      {"expm1", "expm1(a)", [](LD a, LD) { return std::expm1(a); }, 3, -40, 709, 0, 0},
      {"expm1_small", "expm1(a)", [](LD a, LD) { return std::expm1(a); }, 3, -1, 1, 0, 0},
      {"log", "log(a)", [](LD a, LD) { return std::log(a); }, 3, 1e-300, 1e300, 0, 0},
      {"log_near1", "log(a)", [](LD a, LD) { return std::log(a); }, 3, 0.5, 2, 0, 0},
      {"log2", "log2(a)", [](LD a, LD) { return std::log2(a); }, 3, 1e-300, 1e300, 0, 0},
      {"log10", "log10(a)", [](LD a, LD) { return std::log10(a); }, 3, 0.5, 1e300, 0, 0},
      {"log1p", "log1p(a)", [](LD a, LD) { return std::log1p(a); }, 2, -0.999, 100, 0, 0},
      {"pow", "pow(a, b)", [](LD a, LD b) { return std::pow(a, b); }, 16, 0.01, 100, -150, 150},
      {"powr", "powr(a, b)", [](LD a, LD b) { return std::pow(a, b); }, 16, 0.5, 2, -1000, 1000},
      {"pown", "pown(a, (int)b)", [](LD a, LD b) { return std::pow(a, (int)b); }, 16, -4, 4, -60,
       60},
      {"rootn", "rootn(a, (int)b)", [](LD a, LD b) { return std::pow(a, 1.0L / (int)b); }, 16, 1e-5,
       1e5, 1, 20},
      {"sin", "sin(a)", [](LD a, LD) { return std::sin(a); }, 4, -1e6, 1e6, 0, 0},
      {"cos", "cos(a)", [](LD a, LD) { return std::cos(a); }, 4, -1e6, 1e6, 0, 0},
      {"tan", "tan(a)", [](LD a, LD) { return std::tan(a); }, 5, -1e6, 1e6, 0, 0},
      {"sin_huge", "sin(a)", [](LD a, LD) { return std::sin(a); }, 4, -1e300, 1e300, 0, 0},
      {"cos_huge", "cos(a)", [](LD a, LD) { return std::cos(a); }, 4, 1e20, 1e25, 0, 0},
      {"tan_huge", "tan(a)", [](LD a, LD) { return std::tan(a); }, 5, -1e200, -1e100, 0, 0},
      {"sinpi", "sinpi(a)", [](LD a, LD) { return ref_trigpi(a, false); }, 4, -100, 100, 0, 0},
      {"cospi", "cospi(a)", [](LD a, LD) { return ref_trigpi(a, true); }, 4, -100, 100, 0, 0},
      {"asin", "asin(a)", [](LD a, LD) { return std::asin(a); }, 4, -1, 1, 0, 0},
      {"acos", "acos(a)", [](LD a, LD) { return std::acos(a); }, 4, -1, 1, 0, 0},
      {"atan", "atan(a)", [](LD a, LD) { return std::atan(a); }, 5, -100, 100, 0, 0},
      {"atan2", "atan2(a, b)", [](LD a, LD b) { return std::atan2(a, b); }, 6, -10, 10, -10, 10},
      {"atanpi", "atanpi(a)", [](LD a, LD) { return std::atan(a) / kPi; }, 5, -100, 100, 0, 0},
      {"sinh", "sinh(a)", [](LD a, LD) { return std::sinh(a); }, 4, -700, 700, 0, 0},
      {"sinh_small", "sinh(a)", [](LD a, LD) { return std::sinh(a); }, 4, -2, 2, 0, 0},
      {"cosh", "cosh(a)", [](LD a, LD) { return std::cosh(a); }, 4, -700, 700, 0, 0},
      {"tanh", "tanh(a)", [](LD a, LD) { return std::tanh(a); }, 5, -5, 5, 0, 0},
      {"asinh", "asinh(a)", [](LD a, LD) { return std::asinh(a); }, 4, -100, 100, 0, 0},
      {"acosh", "acosh(a)", [](LD a, LD) { return std::acosh(a); }, 4, 1, 100, 0, 0},
      {"atanh", "atanh(a)", [](LD a, LD) { return std::atanh(a); }, 5, -0.999, 0.999, 0, 0},
      {"hypot", "hypot(a, b)", [](LD a, LD b) { return std::hypot(a, b); }, 4, -1e300, 1e300,
       -1e300, 1e300},
      {"erf", "erf(a)", [](LD a, LD) { return std::erf(a); }, 16, -6, 6, 0, 0},
      {"erfc", "erfc(a)", [](LD a, LD) { return std::erfc(a); }, 16, -3, 27, 0, 0},
      {"tgamma", "tgamma(a)", [](LD a, LD) { return std::tgamma(a); }, 16, -20, 171, 0, 0},
      {"fmod", "fmod(a, b)", [](LD a, LD b) { return std::fmod((double)a, (double)b); }, 0, -1e300,
       1e300, -1e3, 1e3},
      {"remainder", "remainder(a, b)",
       [](LD a, LD b) { return std::remainder((double)a, (double)b); }, 0, -1e6, 1e6, 0.5, 50},
      {"floor", "floor(a)", [](LD a, LD) { return std::floor(a); }, 0, -1e6, 1e6, 0, 0},
      {"ceil", "ceil(a)", [](LD a, LD) { return std::ceil(a); }, 0, -1e6, 1e6, 0, 0},
      {"trunc", "trunc(a)", [](LD a, LD) { return std::trunc(a); }, 0, -1e6, 1e6, 0, 0},
      {"round", "round(a)", [](LD a, LD) { return std::round(a); }, 0, -1e6, 1e6, 0, 0},
      {"rint", "rint(a)", [](LD a, LD) { return std::nearbyint(a); }, 0, -1e6, 1e6, 0, 0},
      {"fdim", "fdim(a, b)", [](LD a, LD b) { return std::fdim((double)a, (double)b); }, 0, -1e3,
       1e3, -1e3, 1e3},
      {"ldexp", "ldexp(a, (int)b)", [](LD a, LD b) { return std::ldexp((double)a, (int)b); }, 0,
       -1e3, 1e3, -1100, 1100},
      {"logb", "logb(a)", [](LD a, LD) { return std::logb(a); }, 0, -1e300, 1e300, 0, 0},
      {"nextafter", "nextafter(a, b)",
       [](LD a, LD b) { return std::nextafter((double)a, (double)b); }, 0, -1, 1, -1, 1},
      {"length", "length((double2)(a, b))", [](LD a, LD b) { return std::hypot(a, b); }, 4, -1e300,
       1e300, -1e300, 1e300},
  };
  return f;
}

// The size of one ulp of a double near x (the spacing of doubles in x's binade).
static LD ulp(LD x) {
  x = std::fabs(x);
  if (x < DBL_MIN) return std::ldexp(1.0L, -1074);
  int e;
  std::frexp(x, &e);
  return std::ldexp(1.0L, e - 53);
}

int main() {
  try {
    constexpr int n = 2048;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_DEFAULT, &devices);
    cl::Device device = devices.at(0);
    if (device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") == std::string::npos ||
        device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() == 0) {
      std::cout << "no cl_khr_fp64\nFAIL\n";
      return 1;
    }
    cl::Context context(device);
    cl::CommandQueue queue(context, device);

    std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    for (const Function& f : functions())
      source += std::string("__kernel void k_") + f.name +
                "(__global const double* x, __global const double* y, __global double* r) {\n"
                "  size_t i = get_global_id(0);\n  double a = x[i], b = y[i];\n  r[i] = " +
                f.expr + ";\n}\n";
    cl::Program program(context, source);
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }

    cl::Buffer dx(context, CL_MEM_READ_ONLY, n * sizeof(double));
    cl::Buffer dy(context, CL_MEM_READ_ONLY, n * sizeof(double));
    cl::Buffer dr(context, CL_MEM_WRITE_ONLY, n * sizeof(double));
    std::vector<double> x(n), y(n), r(n);
    std::uint64_t seed = 1;
    auto next = [&seed] {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      return seed >> 11;  // 53 bits
    };
    // Uniform over [lo, hi] for ranges near 0, log-uniform magnitudes for wide ones.
    auto sample = [&](double lo, double hi) {
      double u = (double)next() * 0x1p-53;
      if (lo > 0 && hi / lo > 1e6)
        return std::exp(std::log(lo) + u * (std::log(hi) - std::log(lo)));
      if (hi - lo > 1e12) {
        double m = std::exp(u * std::log(std::max(std::fabs(lo), std::fabs(hi))));
        return (next() & 1) && lo < 0 ? -m : (lo < 0 && hi <= 0 ? -m : m);
      }
      return lo + (hi - lo) * u;
    };
    int failed = 0;
    for (const Function& f : functions()) {
      for (int i = 0; i < n; ++i) {
        x[i] = sample(f.a_lo, f.a_hi);
        y[i] = sample(f.b_lo, f.b_hi);
      }
      std::string name = f.name;
      if (name == "pown" || name == "ldexp" || name == "rootn")
        for (double& v : y) v = std::trunc(v);
      if (name == "tgamma")
        for (int i = 0; i < n; i += 7) x[i] = std::trunc(x[i]) + 0.5;  // away from the poles
      queue.enqueueWriteBuffer(dx, CL_FALSE, 0, n * sizeof(double), x.data());
      queue.enqueueWriteBuffer(dy, CL_FALSE, 0, n * sizeof(double), y.data());
      cl::Kernel k(program, (std::string("k_") + f.name).c_str());
      k.setArg(0, dx);
      k.setArg(1, dy);
      k.setArg(2, dr);
      queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(64));
      queue.enqueueReadBuffer(dr, CL_TRUE, 0, n * sizeof(double), r.data());
      int bad = 0;
      LD worst = 0;
      int worst_i = 0;
      for (int i = 0; i < n; ++i) {
        LD exact = f.ref(x[i], y[i]);
        if (name == "tgamma" && x[i] < 0 && std::trunc(x[i]) == x[i]) continue;  // poles
        LD err;
        if (std::isnan(exact) || std::isnan(r[i])) {
          err = std::isnan(exact) && std::isnan(r[i]) ? 0 : 1e9;
        } else if (f.ulps == 0) {
          double e = (double)exact;
          err = r[i] == e && std::signbit(r[i]) == std::signbit(e) ? 0 : 1e9;
        } else if (std::isinf(exact) || std::fabs(exact) > DBL_MAX) {
          err = std::isinf(r[i]) && std::signbit(r[i]) == std::signbit(exact) ? 0 : 1e9;
        } else {
          err = std::fabs((LD)r[i] - exact) / ulp(exact);
        }
        if (!(err <= f.ulps)) ++bad;
        if (!(err <= worst)) worst = err, worst_i = i;
      }
      std::cout << f.name << ": " << (bad ? "FAIL" : "PASS") << "\n";
      std::cerr << f.name << ": worst " << (double)worst << " ulp\n";
      if (bad) {
        std::cerr << f.name << ": " << bad << " results off; worst " << (double)worst
                  << " ulp at a=" << x[worst_i] << " b=" << y[worst_i] << ": got " << r[worst_i]
                  << ", exact " << (double)f.ref(x[worst_i], y[worst_i]) << "\n";
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
