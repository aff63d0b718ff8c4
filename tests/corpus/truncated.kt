fun main() {
    val x = listOf(1,
