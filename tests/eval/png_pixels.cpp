// png_pixels FILE.png RRGGBB [RRGGBB …]: prints, for each colour, how many pixels of the image have exactly that
// colour, one "RRGGBB COUNT" line each. For the browser test of the HTML report: a chart is drawn when its bars' colour
// covers the screen. Reads 8-bit, non-interlaced PNGs (grey, RGB, RGBA, grey+alpha), which is what Chromium writes.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "png_pixels: %s\n", message.c_str());
  std::exit(2);
}

uint32_t BigEndian(const unsigned char* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
         (static_cast<uint32_t>(p[2]) << 8) | static_cast<uint32_t>(p[3]);
}

int Paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) Die("usage: png_pixels FILE.png RRGGBB [RRGGBB …]");
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) Die(std::string("cannot open ") + argv[1]);
  std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (file.size() < 8 || !std::equal(kSignature, kSignature + 8, file.begin())) Die("not a PNG file");

  uint32_t width = 0, height = 0;
  int channels = 0;
  std::vector<unsigned char> compressed;
  for (size_t at = 8; at + 12 <= file.size();) {
    uint32_t length = BigEndian(&file[at]);
    std::string type(reinterpret_cast<const char*>(&file[at + 4]), 4);
    if (at + 12 + length > file.size()) Die("truncated chunk " + type);
    const unsigned char* data = &file[at + 8];
    if (type == "IHDR") {
      width = BigEndian(data);
      height = BigEndian(data + 4);
      int depth = data[8], colour = data[9], interlace = data[12];
      if (depth != 8 || interlace != 0) Die("only 8-bit non-interlaced images are read");
      switch (colour) {
        case 0: channels = 1; break;
        case 2: channels = 3; break;
        case 4: channels = 2; break;
        case 6: channels = 4; break;
        default: Die("palette images are not read");
      }
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + length;
  }
  if (width == 0 || height == 0 || channels == 0) Die("no image header");

  size_t stride = static_cast<size_t>(width) * static_cast<size_t>(channels);
  std::vector<unsigned char> raw((stride + 1) * height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, compressed.data(), compressed.size()) != Z_OK || raw_size != raw.size()) {
    Die("corrupt image data");
  }
  // Undo the per-row filters (PNG specification, section 9).
  std::vector<unsigned char> pixels(stride * height), zero(stride, 0);
  for (uint32_t y = 0; y < height; ++y) {
    const unsigned char* src = &raw[y * (stride + 1) + 1];
    unsigned char* row = &pixels[y * stride];
    const unsigned char* up = y ? &pixels[(y - 1) * stride] : zero.data();
    int filter = raw[y * (stride + 1)];
    for (size_t x = 0; x < stride; ++x) {
      int a = x >= static_cast<size_t>(channels) ? row[x - static_cast<size_t>(channels)] : 0;
      int b = up[x];
      int c = x >= static_cast<size_t>(channels) ? up[x - static_cast<size_t>(channels)] : 0;
      int v = src[x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) / 2; break;
        case 4: v += Paeth(a, b, c); break;
        default: Die("unknown row filter");
      }
      row[x] = static_cast<unsigned char>(v & 0xff);
    }
  }

  for (int k = 2; k < argc; ++k) {
    unsigned long rgb = std::strtoul(argv[k], nullptr, 16);
    std::array<int, 3> want = {static_cast<int>((rgb >> 16) & 0xff), static_cast<int>((rgb >> 8) & 0xff),
                               static_cast<int>(rgb & 0xff)};
    size_t count = 0;
    for (size_t p = 0; p < pixels.size(); p += static_cast<size_t>(channels)) {
      bool grey = channels <= 2;
      int r = pixels[p], g = grey ? r : pixels[p + 1], b = grey ? r : pixels[p + 2];
      if (r == want[0] && g == want[1] && b == want[2]) ++count;
    }
    std::printf("%s %zu\n", argv[k], count);
  }
  return 0;
}
