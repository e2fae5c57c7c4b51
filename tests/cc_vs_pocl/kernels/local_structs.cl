// Structs in local memory: a __local array of structs with float, int, short and char
// fields written by every work-item, a barrier, then work-item 0 reduces them and copies
// whole structs to private memory and to global memory.
//
// @buffer x f32[1024] random -10 10 seed=591
// @buffer xi i32[1024] random -1000 1000 seed=592
// @buffer out u32[512] zeros     # 128 groups x 4 words (the Summary struct)
// @buffer copies u32[1024] zeros # each work-item's struct, re-read from local memory
// @run local_structs x xi out copies
// @range global=1024 local=64
// @range global=1024 local=8
// @check out exact
// @check copies exact

#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  float value;
  int key;
  short small;
  char tag;
  char pad;
} Item;

typedef struct {
  float sum;
  int max_key;
  int count;
  int tags;
} Summary;

__kernel void local_structs(__global const float* x, __global const int* xi,
                            __global Summary* out, __global uint* copies) {
  __local Item items[64];
  int lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  Item it = {x[gid], xi[gid], (short)(xi[gid] * 7), (char)(gid & 0x7f), 0};
  items[lid] = it;
  barrier(CLK_LOCAL_MEM_FENCE);
  Item mine = items[(lid + 1) % n];  // a neighbour's struct, copied whole
  copies[gid] = as_uint(mine.value) ^ (uint)mine.key ^ ((uint)(ushort)mine.small << 8) ^
                (uint)mine.tag;
  if (lid == 0) {
    Summary s = {0.0f, INT_MIN, 0, 0};
    for (int k = 0; k < n; ++k) {
      Item t = items[k];
      s.sum += t.value;
      s.max_key = max(s.max_key, t.key);
      s.count += t.small > 0;
      s.tags += t.tag;
    }
    out[get_group_id(0)] = s;
  }
}
