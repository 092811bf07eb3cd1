#include "langsift/impl/train-inl.hpp"
