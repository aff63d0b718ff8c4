export function f(a: number): number {
  return a +
