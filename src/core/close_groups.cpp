#include "langsift/impl/close_groups-inl.hpp"
