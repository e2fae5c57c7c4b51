// Structs in global buffers (array of structs, mixed int and float fields, a float4
// member): read, updated in place, and summarised into another struct array. FP_CONTRACT
// OFF so the float fields are exact; the output struct is compared as raw words.
//
// @buffer particles f32[1536] random -10 10 seed=221   # 128 x Particle (12 words)
// @buffer summary u32[512] zeros                        # 128 x Summary (4 words)
// @run advance particles summary float:0.25
// @range global=128 local=32
// @check particles exact
// @check summary exact

#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  float4 pos;
  float4 vel;
  int id;     // initialised with float bits: any int
  uint flags;
  float mass;
  float age;
} Particle;

typedef struct {
  int id_low;
  float speed2;
  uint quadrant;
  float weight;
} Summary;

__kernel void advance(__global Particle* particles, __global Summary* summary, float dt) {
  int i = get_global_id(0);
  __global Particle* p = &particles[i];
  Particle local_copy = *p;
  local_copy.pos += local_copy.vel * dt;
  local_copy.age = local_copy.age + dt;
  local_copy.flags = (local_copy.pos.x > 0.0f) | ((local_copy.pos.y > 0.0f) << 1);
  *p = local_copy;
  Summary s;
  s.id_low = local_copy.id & 0xff;
  // Spelled out: dot() may fuse, and the point here is the struct layout.
  s.speed2 = local_copy.vel.x * local_copy.vel.x + local_copy.vel.y * local_copy.vel.y;
  s.quadrant = local_copy.flags;
  s.weight = local_copy.mass * 2.0f;
  summary[i] = s;
}
