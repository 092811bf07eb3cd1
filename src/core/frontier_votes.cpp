#include "langsift/impl/frontier/votes-inl.hpp"
