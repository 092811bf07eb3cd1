// langsift — how the library is compiled: as a library (the default) or header-only.
//
// By default the implementations are compiled once, into the library target langsift::core (and
// the encoding, models and warc libraries), and the public headers hold declarations, types and
// small inline functions only: no intrinsics, no generated tables, no xxHash.
//
// Define LANGSIFT_HEADER_ONLY (before any langsift header, or with -DLANGSIFT_HEADER_ONLY; the
// CMake target langsift::header_only does it) to use the core without linking a library, as in
// langsift 0.1: every public header then includes its implementation (langsift/impl/*-inl.hpp),
// whose functions are declared LANGSIFT_INLINE, that is `inline`.
//
// The layout follows fmt's: `x.hpp` declares; `impl/x-inl.hpp` defines, with LANGSIFT_INLINE; the
// end of `x.hpp` includes `impl/x-inl.hpp` under LANGSIFT_HEADER_ONLY; `src/core/x.cpp` includes
// `impl/x-inl.hpp` and is compiled into langsift::core (docs/architecture.md).
#pragma once

#if defined(LANGSIFT_HEADER_ONLY)
#define LANGSIFT_INLINE inline
#else
#define LANGSIFT_INLINE
#endif
