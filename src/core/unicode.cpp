#include "langsift/impl/unicode-inl.hpp"
