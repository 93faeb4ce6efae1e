# Static mangabookmark and mbctl binaries on an empty base, run as non-root.
# The build image is pinned by digest (golang:1.26-trixie, Go 1.26.5, the
# multi-platform index as docker-library/repo-info lists it); bump tag and
# digest together. scratch is not an image and needs no pin.
FROM golang:1.26-trixie@sha256:4ee9ffa999b4583ce281939cdff828763083610292f252279a0cee77473bd9a7 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/mangabookmark ./cmd/mangabookmark \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/mbctl ./cmd/mbctl

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/mangabookmark /out/mbctl /usr/local/bin/
USER 65532:65532
ENV LISTEN_ADDR=0.0.0.0:8080
# The Go heap's soft limit, under the container's 512 MiB (compose.yaml
# mem_limit): the collector works harder before the kernel kills.
ENV GOMEMLIMIT=400MiB
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD ["/usr/local/bin/mbctl", "health", "--server", "http://127.0.0.1:8080"]
ENTRYPOINT ["/usr/local/bin/mangabookmark"]
CMD ["serve"]
