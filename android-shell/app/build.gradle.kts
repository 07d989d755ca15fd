plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "org.banco.app"
    compileSdk = 35

    defaultConfig {
        applicationId = "org.banco.app"
        minSdk = 26
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
        ndk {
            // The ABIs cargo-ndk builds into src/main/jniLibs (README).
            abiFilters += listOf("arm64-v8a", "armeabi-v7a", "x86_64")
        }
    }

    buildTypes {
        release {
            isMinifyEnabled = true
            proguardFiles(getDefaultProguardFile("proguard-android-optimize.txt"), "proguard-rules.pro")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    kotlinOptions {
        jvmTarget = "17"
    }
}

dependencies {
    implementation(project(":core"))
    implementation("net.java.dev.jna:jna:5.15.0@aar")
    implementation("androidx.activity:activity-ktx:1.9.3")
    // FileProvider, to share pictures of a position.
    implementation("androidx.core:core:1.13.1")
}
