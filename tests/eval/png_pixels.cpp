// png_pixels FILE.png RRGGBB [RRGGBB …]: prints, for each colour, how many pixels of the image have exactly that
// colour, one "RRGGBB COUNT" line each. For the browser test of the HTML report: a chart is drawn when its bars' colour
// covers the screen. Any PNG libpng reads, converted to 8-bit RGB by libpng's simplified API.
#include <png.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "png_pixels: %s\n", message.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) Die("usage: png_pixels FILE.png RRGGBB [RRGGBB …]");
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, argv[1])) Die(std::string(argv[1]) + ": " + image.message);
  image.format = PNG_FORMAT_RGB;  // alpha, grey and 16-bit samples are converted (alpha composed on black)
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) {
    Die(std::string(argv[1]) + ": " + image.message);
  }
  for (int k = 2; k < argc; ++k) {
    unsigned long rgb = std::strtoul(argv[k], nullptr, 16);
    std::array<unsigned char, 3> want = {static_cast<unsigned char>((rgb >> 16) & 0xff),
                                         static_cast<unsigned char>((rgb >> 8) & 0xff),
                                         static_cast<unsigned char>(rgb & 0xff)};
    size_t count = 0;
    for (size_t p = 0; p + 2 < pixels.size(); p += 3) {
      if (pixels[p] == want[0] && pixels[p + 1] == want[1] && pixels[p + 2] == want[2]) ++count;
    }
    std::printf("%s %zu\n", argv[k], count);
  }
  return 0;
}
