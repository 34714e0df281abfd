# A JVM image of sidecar-wait. The native image (GraalVM, static binary on scratch) replaces this; see
# README "Native binary and image" once it lands.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
COPY src src
RUN mvn -B -q package -DskipTests

FROM eclipse-temurin:17-jre
COPY --from=build /src/target/sidecar-wait.jar /opt/sidecar-wait/sidecar-wait.jar
ENTRYPOINT ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", "/opt/sidecar-wait/sidecar-wait.jar"]
