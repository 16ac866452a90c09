#ifndef CLMDBRAW_SHIM_H
#define CLMDBRAW_SHIM_H
#include <lmdb.h>
#endif
