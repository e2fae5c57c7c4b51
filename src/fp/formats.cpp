// The narrow formats: decoding to binary32 and rounding from binary32/binary64 through the
// shared rounding step (rounding.h). What the OCP formats lack (infinity, NaN) is decided
// here; docs/floating-point.md lists the rules.
#include "formats.h"

#include "binary.h"

namespace ventus::fp {
namespace {

constexpr FormatInfo kFormats[] = {
    {"f16", 16, 5, 10, 15, true, true, 0x7bff, 0x7e00},
    {"bf16", 16, 8, 7, 127, true, true, 0x7f7f, 0x7fc0},
    {"e4m3", 8, 4, 3, 7, false, true, 0x7e, 0x7f},
    {"e5m2", 8, 5, 2, 15, true, true, 0x7b, 0x7e},
    {"e3m2", 6, 3, 2, 3, false, false, 0x1f, 0},
    {"e2m3", 6, 2, 3, 1, false, false, 0x1f, 0},
    {"e2m1", 4, 2, 1, 1, false, false, 0x7, 0},
};

uint32_t sign_bit(const FormatInfo& info) {
  return uint32_t{1} << (info.bits - 1);
}
uint32_t infinity_of(const FormatInfo& info) {  // formats with has_inf only
  return ((uint32_t{1} << info.exponent_bits) - 1) << info.mantissa_bits;
}

// The rounding step for every binary source format (binary32, binary64).
template <typename Source>
uint32_t narrow(Format f, typename Source::BitsType a, uint32_t rm, bool saturate,
                uint32_t& flags) {
  const FormatInfo& info = format_info(f);
  const bool sign = Source::sign_of(a);
  const uint32_t signed_max = (sign ? sign_bit(info) : 0) | info.max_finite;
  if (Source::is_nan(a)) {
    if (!info.has_nan) {
      flags |= kNV;
      return info.max_finite;
    }
    if (Source::is_snan(a)) flags |= kNV;
    return info.canonical_nan;
  }
  if (Source::is_inf(a)) {
    if (info.has_inf) return (sign ? sign_bit(info) : 0) | infinity_of(info);
    flags |= kNV;
    return saturate || !info.has_nan ? signed_max : info.canonical_nan;
  }
  if (Source::is_zero(a)) return sign ? sign_bit(info) : 0;
  const typename Source::Unpacked x = Source::unpack(a);
  const detail::Layout layout{static_cast<int>(info.mantissa_bits), info.bias, info.max_finite};
  const detail::Rounded r = detail::round_to_layout(layout, sign, x.exp, x.sig, rm, flags);
  if (!r.overflow) return (sign ? sign_bit(info) : 0) | static_cast<uint32_t>(r.magnitude);
  if (saturate || detail::overflow_to_max_finite(sign, rm)) return signed_max;
  if (info.has_inf) return (sign ? sign_bit(info) : 0) | infinity_of(info);
  return info.has_nan ? info.canonical_nan : signed_max;
}

}  // namespace

const FormatInfo& format_info(Format f) {
  return kFormats[static_cast<unsigned>(f)];
}

uint32_t widen_to_f32(Format f, uint32_t bits) {
  using B32 = detail::Binary32;
  const FormatInfo& info = format_info(f);
  const uint32_t magnitude = bits & (sign_bit(info) - 1);
  const bool sign = (bits & sign_bit(info)) != 0;
  if (info.has_inf && magnitude >= infinity_of(info)) {
    return magnitude == infinity_of(info) ? B32::signed_inf(sign) : kCanonicalNaN;
  }
  if (!info.has_inf && info.has_nan && magnitude == info.canonical_nan) return kCanonicalNaN;
  if (magnitude == 0) return B32::signed_zero(sign);
  const uint32_t field = magnitude >> info.mantissa_bits;
  const uint32_t fraction = magnitude & ((uint32_t{1} << info.mantissa_bits) - 1);
  const uint64_t sig = field ? fraction | (uint32_t{1} << info.mantissa_bits) : fraction;
  const int exp = (field ? static_cast<int>(field) : 1) - info.bias -
                  static_cast<int>(info.mantissa_bits);
  uint32_t exact = 0;  // every value of these formats is a binary32 value: nothing raised
  return B32::round_pack(sign, exp, sig, kRNE, exact);
}

uint32_t narrow_from_f32(Format f, uint32_t f32, uint32_t rm, bool saturate, uint32_t& flags) {
  return narrow<detail::Binary32>(f, f32, rm, saturate, flags);
}

uint32_t narrow_from_f64(Format f, uint64_t f64, uint32_t rm, bool saturate, uint32_t& flags) {
  return narrow<detail::Binary64>(f, f64, rm, saturate, flags);
}

}  // namespace ventus::fp
