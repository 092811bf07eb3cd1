// langsift — xxHash for the implementation files (langsift/impl/*-inl.hpp), inlined: the public
// headers do not include it, so a user's own use of xxHash is not changed by langsift's.
#pragma once

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>
