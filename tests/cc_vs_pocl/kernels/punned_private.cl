// A private array written as one type and read as another: LLVM's SROA turns it into one
// 128-bit integer, loaded from the int4 source and sliced by shifts and truncations (the
// CTS half suite's vload_half8 of a private pointer) or stored whole; the back end splits
// it into 32-bit words. The slices start inside words (16-bit halves) and span two words
// (the four shorts from byte 2).
//
// @buffer src int4[256] random -2147483648 2147483647 seed=171
// @buffer widened float8[256] zeros
// @buffer shorts u16[2048] zeros
// @buffer longs u64[256] zeros
// @buffer copied int4[256] zeros
// @run punned src widened shorts longs copied
// @range global=256 local=32
// @check widened exact
// @check shorts exact
// @check longs exact
// @check copied exact

__kernel void punned(__global const int4* src, __global float8* widened, __global ushort* shorts,
                     __global ulong* longs, __global int4* copied) {
  size_t i = get_global_id(0);
  __private int4 data[1];
  data[0] = src[i];
  widened[i] = vload_half8(0, (__private const half*)data);
  __private const ushort* u = (__private const ushort*)data;
  for (int k = 0; k < 8; ++k) shorts[8 * i + k] = u[k];
  longs[i] = as_ulong(vload4(0, u + 1));
  __private int4 copy[1];
  __private char* to = (__private char*)copy;
  __private const char* from = (__private const char*)data;
  for (int k = 0; k < 16; ++k) to[k] = from[k];
  copied[i] = copy[0];
}
