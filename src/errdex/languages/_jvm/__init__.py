"""What Java and Kotlin share: the JVM libraries they call print the same text."""
