// The print buffer protocol (docs/driver.md, "Print buffer"): kernels append records with
// src/compiler/lib/printf.s (vt_printf) and write the record's address to CSR_PRINT; the host
// formats the record while the warp waits, and drains the buffer (PrintDrain) so that its
// space is used again.
//
// The buffer's layout is the device ABI's (include/ventus/abi.def, "print buffer"): a header
// whose next-free offset starts at abi::kPrintHeaderBytes, is advanced with lr.w/sc.w and
// is reset by the host once every reserved record is printed; then records, back to back.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "ventus/abi.h"
#include "ventus/device.h"

namespace ventus::driver {

inline constexpr uint32_t kMaxPrintString = 4096;  // longest format or %s string read

// Formats one lane's output: conversions %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %a
// %A %%, with flags, width and precision (no '*'), the length modifiers hh, h and l and
// OpenCL's vector conversions (%v4hlf: v2, v3, v4, v8 or v16, then hh, h, hl or l; the
// elements are printed separated by commas). Each value takes the argument words of its
// abi::PrintValue (a scalar %f..%A a double's two, a vector's elements by the length: h
// half, hl float, l double); a vector one value per element. read_string(address) returns
// the string at a device address (%s).
std::string format_print(std::string_view format, std::span<const uint32_t> args,
                         const std::function<std::string(uint32_t address)>& read_string);

// Reads the record at address and returns the text of every printing lane, lane by lane.
// Malformed records raise ventus::Error.
std::string format_print_record(const sim::Memory& memory, uint32_t address);

// Bytes of a record of `lanes` lanes and `num_args` arguments.
constexpr uint64_t print_record_bytes(uint64_t lanes, uint64_t num_args) {
  return abi::kPrintRecordLaneFlags + 4 * lanes * (num_args + 1);
}

// Gives printed records' space back, so that a kernel can print any amount through a buffer
// of fixed size and output streams as it is printed. Records are reserved back to back from
// abi::kPrintHeaderBytes; when the bytes printed since the last reset reach the next free
// offset, nothing reserved is waiting, and the offset goes back to kPrintHeaderBytes (one
// compare-and-swap: a warp reserving meanwhile keeps the space it got). Not thread-safe:
// the caller serializes print requests.
class PrintDrain {
 public:
  // The launch's print buffer (KNL words 12 and 13); base 0: none, nothing to drain.
  void start(uint32_t base, uint32_t size);
  // After the record at address was printed: zeroes it (vt_printf writes only the active
  // lanes' flags) and counts its bytes; resets the offset when all are printed.
  // Records outside the buffer or malformed ones are left alone.
  void printed(sim::Memory& memory, uint32_t address);

 private:
  uint32_t base_ = 0;
  uint32_t size_ = 0;
  uint64_t printed_bytes_ = 0;  // since the offset was last abi::kPrintHeaderBytes
};

}  // namespace ventus::driver
