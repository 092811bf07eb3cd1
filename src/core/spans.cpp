#include "langsift/impl/spans-inl.hpp"
