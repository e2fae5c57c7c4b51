// Common and geometric builtins: mix step smoothstep sign degrees radians min max clamp;
// dot length normalize cross distance on float2/3/4, and the fast_* variants (their
// accuracy is the implementation's: a loose bound).
//
// @buffer a float4[256] random -5 5 seed=371
// @buffer b float4[256] random -5 5 seed=372
// @buffer t f32[256] random 0 1 seed=373
// @buffer common f32[2304] zeros    # 9 x 256
// @buffer geo f32[3840] zeros       # 15 x 256
// @buffer vecs float4[768] zeros    # normalize(float4), cross(float4), normalize(float3)
// @buffer fast f32[768] zeros
// @run common_geo a b t common geo vecs fast
// @range global=256 local=32
// @check common ulp 8 abs 1e-5
// @check geo ulp 8 abs 1e-5
// @check vecs ulp 8 abs 1e-5
// @check fast ulp 16384 abs 1e-3

__kernel void common_geo(__global const float4* as, __global const float4* bs,
                         __global const float* ts, __global float* common, __global float* geo,
                         __global float4* vecs, __global float* fast) {
  int i = get_global_id(0), n = get_global_size(0);
  float4 a = as[i], b = bs[i];
  float t = ts[i];
  common[0 * n + i] = mix(a.x, b.x, t);
  common[1 * n + i] = step(a.y, b.y);
  common[2 * n + i] = smoothstep(-2.0f, 3.0f, a.z);
  common[3 * n + i] = sign(a.w) + sign(0.0f * a.w);
  common[4 * n + i] = degrees(a.x);
  common[5 * n + i] = radians(b.x * 30.0f);
  common[6 * n + i] = min(a.x, b.y) + max(a.y, 1.5f);
  common[7 * n + i] = clamp(a.z, -1.0f, b.z > -1.0f ? b.z : 2.0f);
  float4 m = mix(a, b, (float4)(t, 1.0f - t, 0.25f, 0.75f));
  common[8 * n + i] = m.x + m.y + m.z + m.w;
  geo[0 * n + i] = dot(a.xy, b.xy);
  geo[1 * n + i] = dot(a.xyz, b.xyz);
  geo[2 * n + i] = dot(a, b);
  geo[3 * n + i] = length(a.xy);
  geo[4 * n + i] = length(a.xyz);
  geo[5 * n + i] = length(a);
  geo[6 * n + i] = distance(a.xy, b.xy);
  geo[7 * n + i] = distance(a.xyz, b.xyz);
  geo[8 * n + i] = distance(a, b);
  float2 n2 = normalize(b.xy);
  geo[9 * n + i] = n2.x;
  geo[10 * n + i] = n2.y;
  geo[11 * n + i] = length(a * 1e20f);  // no overflow in the intermediate sum
  geo[12 * n + i] = length(a * 1e-25f);
  float3 c3 = cross(a.xyz, b.xyz);
  geo[13 * n + i] = c3.x + c3.y;
  geo[14 * n + i] = c3.z;
  vecs[i] = normalize(a);
  vecs[n + i] = cross(a, b);
  vecs[2 * n + i] = (float4)(normalize(b.xyz), 0.0f);
  fast[i] = fast_length(a);
  fast[n + i] = fast_distance(a, b);
  fast[2 * n + i] = fast_normalize(a).y;
}
