// Features of an identifier for the naturalness classifier. Three families, all sparse and named:
//   - character n-grams of the lower-cased name (1-5) and of its SNAILS tag string (1-4), with boundary marks, and of
//     its case shape (2-5; "XXXxxx" for "BPCtry"), which catch what names of each level look like ("<acd", "#>",
//     "+++", "XXXx");
//   - for each word of the name: the word itself and its character 2-4-grams, so common abbreviations ("num", "amt")
//     and their shapes are learned; its kind (below) with its length and share of vowels, and with its case shape;
//   - dictionary evidence: what kind each word is (identifier.h: English word by tier, run-together words, prefix or
//     consonant-skeleton abbreviation, partly words, unrecognised), as proportions, as a set and as a sequence
//     ("seq:WPU"), plus word count, length and case.
#pragma once

#include <string_view>

#include "naturalness/wordlist.h"

namespace plainsql::naturalness {

/// Receives features: a name and a value. A name may come more than once; values then add up.
class FeatureSink {
 public:
  virtual ~FeatureSink() = default;
  virtual void Add(std::string_view feature, double value) = 0;
};

void ExtractFeatures(std::string_view identifier, const WordList& words, FeatureSink& sink);

}  // namespace plainsql::naturalness
