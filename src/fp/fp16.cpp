// binary16 with RISC-V Zfh semantics: the shared binary template at 5.10 (binary.h).
#include "fp16.h"

#include "binary.h"

namespace ventus::fp::f16 {
namespace {
using B = detail::Binary16;
}  // namespace

uint16_t add(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags) {
  return B::add(a, b, rm, flags);
}
uint16_t sub(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags) {
  return B::sub(a, b, rm, flags);
}
uint16_t mul(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags) {
  return B::mul(a, b, rm, flags);
}
uint16_t div(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags) {
  return B::div(a, b, rm, flags);
}
uint16_t sqrt(uint16_t a, uint32_t rm, uint32_t& flags) {
  return B::sqrt(a, rm, flags);
}
uint16_t fma(uint16_t a, uint16_t b, uint16_t c, uint32_t rm, uint32_t& flags) {
  return B::fma(a, b, c, rm, flags);
}
uint16_t min(uint16_t a, uint16_t b, uint32_t& flags) {
  return B::min(a, b, flags);
}
uint16_t max(uint16_t a, uint16_t b, uint32_t& flags) {
  return B::max(a, b, flags);
}
bool eq(uint16_t a, uint16_t b, uint32_t& flags) {
  return B::eq(a, b, flags);
}
bool lt(uint16_t a, uint16_t b, uint32_t& flags) {
  return B::lt(a, b, flags);
}
bool le(uint16_t a, uint16_t b, uint32_t& flags) {
  return B::le(a, b, flags);
}
uint32_t classify(uint16_t a) {
  return B::classify(a);
}
int32_t to_i32(uint16_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<int32_t>(a, rm, flags);
}
uint32_t to_u32(uint16_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<uint32_t>(a, rm, flags);
}
uint16_t from_i32(int32_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
uint16_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags) {
  return B::from_int(a, rm, flags);
}
int16_t to_i16(uint16_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<int16_t>(a, rm, flags);
}
uint16_t to_u16(uint16_t a, uint32_t rm, uint32_t& flags) {
  return B::to_int<uint16_t>(a, rm, flags);
}
uint32_t to_f32(uint16_t a, uint32_t& flags) {
  return detail::Binary32::convert<B>(a, kRNE, flags);  // exact: rm never matters
}
uint16_t from_f32(uint32_t a, uint32_t rm, uint32_t& flags) {
  return B::convert<detail::Binary32>(a, rm, flags);
}

}  // namespace ventus::fp::f16
