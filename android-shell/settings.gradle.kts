// Banco Android shell. Before opening in Android Studio, generate the Kotlin bindings and build
// the native libraries (see README.md):
//   bindings/scripts/generate.sh                       -> target/bindings/kotlin (core/ compiles it)
//   cargo ndk ... -o android-shell/app/src/main/jniLibs build --release -p banco-ffi
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "banco-android"
include(":core", ":app")
