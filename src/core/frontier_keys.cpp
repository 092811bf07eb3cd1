#include "langsift/impl/frontier/keys-inl.hpp"
