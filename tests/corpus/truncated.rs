fn main() {
    let x = vec![1, 2
