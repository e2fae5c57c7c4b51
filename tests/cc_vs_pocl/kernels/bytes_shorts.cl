// char/uchar/short/ushort buffers: byte and half-word loads with sign or zero extension,
// stores to neighbouring bytes from different work-items (a store must not clobber its
// neighbours), wrap-around arithmetic in narrow types, and a byte-wise in-place update.
//
// @buffer c i8[1024] random -128 127 seed=251
// @buffer uc u8[1024] random 0 255 seed=252
// @buffer s i16[1024] random -32768 32767 seed=253
// @buffer us u16[1024] random 0 65535 seed=254
// @buffer out_c i8[1024] zeros
// @buffer out_uc u8[1024] zeros
// @buffer out_s i16[1024] zeros
// @buffer out_us u16[1024] zeros
// @buffer wide i32[1024] zeros
// @buffer text u8[1024] random 32 126 seed=255
// @run narrow c uc s us out_c out_uc out_s out_us wide
// @run upper text
// @range global=1024 local=64
// @range global=1024 local=32
// @check out_c exact
// @check out_uc exact
// @check out_s exact
// @check out_us exact
// @check wide exact
// @check text exact

__kernel void narrow(__global const char* c, __global const uchar* uc, __global const short* s,
                     __global const ushort* us, __global char* out_c, __global uchar* out_uc,
                     __global short* out_s, __global ushort* out_us, __global int* wide) {
  int i = get_global_id(0);
  char a = c[i];
  uchar b = uc[i];
  short h = s[i];
  ushort u = us[i];
  out_c[i] = (char)(a * 3 + 1);         // wraps in 8 bits
  out_uc[i] = (uchar)(b + uc[i ^ 1]);   // neighbour's byte, wraps
  out_s[i] = (short)(h * 2 - a);
  out_us[i] = (ushort)(u + (ushort)b * 300);
  wide[i] = a * 1000000 + b * 1000 + (h >> 4) + (u >> 8);
}

__kernel void upper(__global uchar* text) {
  int i = get_global_id(0);
  uchar ch = text[i];
  if (ch >= 'a' && ch <= 'z') text[i] = ch - 'a' + 'A';
  else if (ch >= '0' && ch <= '9') text[i] = '#';
}
