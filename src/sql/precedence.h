// Binding power of SQL operators (higher binds tighter): one table for the parser, which builds the tree by it, and the
// printer, which puts parentheses where a child binds looser than its parent.
#pragma once

namespace plainsql::sql {

enum Prec : int {
  kPrecOr = 1,
  kPrecAnd = 2,
  kPrecNot = 3,
  kPrecCompare = 4,
  kPrecBit = 5,
  kPrecAdd = 6,
  kPrecMul = 7,
  kPrecConcat = 8,
  kPrecUnary = 9,
  kPrecPostfix = 10,
  kPrecAtom = 11,
};

}  // namespace plainsql::sql
