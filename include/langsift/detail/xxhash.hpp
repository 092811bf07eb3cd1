// langsift — xxHash for the implementation files (XXH3-64 checksums and keys), inlined: the
// public headers do not include it, so XXH_INLINE_ALL is defined only where xxHash is used.
#pragma once

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>
