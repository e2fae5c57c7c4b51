// Float math built-ins against the host: each function runs on 1024 inputs from its usual
// domain; the host computes the exact result in double precision (the harness and its
// rules: math_table.h).
#include <cstdint>

#include "math_table.h"

static const std::vector<MathFunction<double>>& functions() {
  static const std::vector<MathFunction<double>> f = {
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

int main() {
  MathCheck<float, double> check;
  check.type = "float";
  check.inputs_per_function = 1024;
  check.inputs = [seed = std::uint32_t{1}](const MathFunction<double>& f, std::vector<float>& x,
                                           std::vector<float>& y) mutable {
    auto uniform = [&seed](double lo, double hi) {
      seed = seed * 1664525u + 1013904223u;
      return (float)(lo + (hi - lo) * ((seed >> 8) / 16777216.0));
    };
    for (size_t i = 0; i < x.size(); ++i) {
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
  };
  return run_math_check(functions(), check);
}
