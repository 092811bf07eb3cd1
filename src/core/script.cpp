#include "langsift/impl/script-inl.hpp"
