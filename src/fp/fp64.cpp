// binary64 with RISC-V D semantics: the shared binary template at 11.52 (binary.h).
#include "fp64.h"

#include "binary.h"

namespace ventus::fp::f64 {
namespace {
using B = detail::Binary64;
}  // namespace

uint64_t add(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags) {
  return B::add(a, b, rm, flags);
}
uint64_t sub(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags) {
  return B::sub(a, b, rm, flags);
}
uint64_t mul(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags) {
  return B::mul(a, b, rm, flags);
}
uint64_t div(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags) {
  return B::div(a, b, rm, flags);
}
uint64_t sqrt(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::sqrt(a, rm, flags);
}
uint64_t fma(uint64_t a, uint64_t b, uint64_t c, uint32_t rm, uint32_t& flags) {
  return B::fma(a, b, c, rm, flags);
}
uint64_t min(uint64_t a, uint64_t b, uint32_t& flags) {
  return B::min(a, b, flags);
}
uint64_t max(uint64_t a, uint64_t b, uint32_t& flags) {
  return B::max(a, b, flags);
}
bool eq(uint64_t a, uint64_t b, uint32_t& flags) {
  return B::eq(a, b, flags);
}
bool lt(uint64_t a, uint64_t b, uint32_t& flags) {
  return B::lt(a, b, flags);
}
bool le(uint64_t a, uint64_t b, uint32_t& flags) {
  return B::le(a, b, flags);
}
uint32_t classify(uint64_t a) {
  return B::classify(a);
}
int32_t to_i32(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<int32_t>(a, rm, flags);
}
uint32_t to_u32(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<uint32_t>(a, rm, flags);
}
int64_t to_i64(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<int64_t>(a, rm, flags);
}
uint64_t to_u64(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<uint64_t>(a, rm, flags);
}
uint64_t from_i32(int32_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
uint64_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
uint64_t from_i64(int64_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
uint64_t from_u64(uint64_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
uint64_t from_f32(uint32_t a, uint32_t& flags) {
  return B::convert<detail::Binary32>(a, kRNE, flags);  // exact: rm never matters
}
uint32_t to_f32(uint64_t a, uint32_t rm, uint32_t& flags) {
  return detail::Binary32::convert<B>(a, rm, flags);
}

}  // namespace ventus::fp::f64
