class Truncated {
    void run() {
        if (x) {
            call(