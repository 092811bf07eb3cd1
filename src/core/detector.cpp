#include "langsift/impl/detector-inl.hpp"
