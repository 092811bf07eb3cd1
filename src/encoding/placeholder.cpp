// Placeholder so the target has a source until src/encoding/*.cpp lands.
namespace langsift { int encoding_placeholder = 0; }
