#include "langsift/impl/frontier/state-inl.hpp"
