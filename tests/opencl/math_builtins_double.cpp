// Double math built-ins (cl_khr_fp64) against the host: each function runs on 2048 inputs
// from its domain (and for sin/cos/tan also huge arguments, where the argument reduction
// needs hundreds of bits of 2/pi); the host computes the result in long double (the
// harness and its rules: math_table.h).
#include <algorithm>
#include <cstdint>

#include "math_table.h"

using LD = long double;

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

static const std::vector<MathFunction<LD>>& functions() {
  static const std::vector<MathFunction<LD>> f = {
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

int main() {
  MathCheck<double, LD> check;
  check.type = "double";
  check.prelude = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  check.inputs_per_function = 2048;
  check.unsupported = [](const cl::Device& device) -> std::string {
    if (device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") == std::string::npos ||
        device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() == 0)
      return "no cl_khr_fp64";
    return "";
  };
  check.inputs = [seed = std::uint64_t{1}](const MathFunction<LD>& f, std::vector<double>& x,
                                           std::vector<double>& y) mutable {
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
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = sample(f.a_lo, f.a_hi);
      y[i] = sample(f.b_lo, f.b_hi);
    }
    const std::string name = f.name;
    if (name == "pown" || name == "ldexp" || name == "rootn")
      for (double& v : y) v = std::trunc(v);
    if (name == "tgamma")
      for (size_t i = 0; i < x.size(); i += 7)
        x[i] = std::trunc(x[i]) + 0.5;  // away from the poles
  };
  check.unchecked = [](const MathFunction<LD>& f, double a) {
    return std::string(f.name) == "tgamma" && a < 0 && std::trunc(a) == a;  // poles
  };
  return run_math_check(functions(), check);
}
