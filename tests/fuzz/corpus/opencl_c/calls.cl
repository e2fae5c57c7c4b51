$int helper(int x, int y) { return x > y ? x - y : y - x; }
kernel void calls(global int *o) {
  int g = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < g; ++k) { if (k == 5) continue; acc += helper(k, g); if (acc > 100) break; }
  o[g] = acc;
}
