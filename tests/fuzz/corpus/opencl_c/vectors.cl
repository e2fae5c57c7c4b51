!typedef struct { float4 p; int id; } item_t;
kernel void vec(global item_t *items, global float4 *out) {
  size_t i = get_global_id(0);
  float4 v = items[i].p * 2.0f + (float4)(1, 2, 3, 4);
  out[i] = v.wzyx + convert_float4(vload4(0, &items[i].id));
}
