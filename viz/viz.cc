// Anchor translation unit so airscope_viz is a library even before its writers land.
namespace airscope {}
