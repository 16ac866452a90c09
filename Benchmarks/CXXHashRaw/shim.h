#ifndef CXXHASHRAW_SHIM_H
#define CXXHASHRAW_SHIM_H
#include <xxhash.h>
#endif
