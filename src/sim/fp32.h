#include "../fp/fp32.h"  // the fp32 library lives in src/fp (target ventus_fp)
