#include "langsift/impl/model-inl.hpp"
