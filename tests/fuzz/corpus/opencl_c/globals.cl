!constant int table[4] = {1, 2, 3, 4};
global int counter;
kernel void g(global int *o) {
  o[get_global_id(0)] = table[get_global_id(0) & 3] + counter++;
}
