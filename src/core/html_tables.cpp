#include "langsift/impl/html/tables-inl.hpp"
