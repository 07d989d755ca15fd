// Pure Kotlin/JVM: the app's UI logic over the generated bindings, no Android imports.
// Tested on the JVM by android-shell/scripts/test-core.sh (kotlinc directly, the binding tests'
// toolchain). src/test/kotlin is a plain main() runner (org.banco.shell.tests.MainKt), not JUnit.
plugins {
    id("org.jetbrains.kotlin.jvm")
}

kotlin {
    jvmToolchain(17)
    // The generated bindings (package org.banco): run bindings/scripts/generate.sh first.
    sourceSets["main"].kotlin.srcDir("../../target/bindings/kotlin")
}

dependencies {
    // The app brings JNA as an Android archive (jna@aar, with its own native stubs); plain JVM
    // users (tests) bring the jar.
    compileOnly("net.java.dev.jna:jna:5.15.0")
    testImplementation("net.java.dev.jna:jna:5.15.0")
}
