#include "langsift/impl/frontier/policy-inl.hpp"
