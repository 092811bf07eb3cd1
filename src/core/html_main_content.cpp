#include "langsift/impl/html/main_content-inl.hpp"
