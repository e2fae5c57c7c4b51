// One n-body step: 256 bodies, float4 positions (w unused) and velocities, masses apart;
// bodies are staged in local memory tiles of the workgroup size; softened gravity with
// rsqrt. Loose bounds: the force sums add 256 terms.
//
// @buffer pos float4[256] random -1 1 seed=141
// @buffer vel float4[256] random -0.1 0.1 seed=142
// @buffer mass f32[256] random 0.5 1.5 seed=143
// @buffer new_pos float4[256] zeros
// @buffer new_vel float4[256] zeros
// @run nbody pos vel mass new_pos new_vel local:1024 local:256 int:256 float:0.01 float:0.05
// @range global=256 local=64
// @range global=256 local=32
// @check new_pos ulp 64 abs 1e-5
// @check new_vel ulp 64 abs 1e-4

__kernel void nbody(__global const float4* pos, __global const float4* vel,
                    __global const float* mass, __global float4* new_pos,
                    __global float4* new_vel, __local float4* tile, __local float* tile_mass,
                    int n, float dt, float eps) {
  int i = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
  float4 p = pos[i];
  float3 acc = (float3)(0.0f, 0.0f, 0.0f);
  for (int base = 0; base < n; base += ls) {
    tile[lid] = pos[base + lid];
    tile_mass[lid] = mass[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < ls; ++j) {
      float3 d = tile[j].xyz - p.xyz;
      float r2 = dot(d, d) + eps * eps;
      float inv = rsqrt(r2);
      acc += d * (tile_mass[j] * inv * inv * inv);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = vel[i];
  v.xyz += acc * dt;
  new_vel[i] = (float4)(v.xyz, 0.0f);
  new_pos[i] = (float4)(p.xyz + v.xyz * dt, 1.0f);
}
