# serve's listeners over TLS (--listen-tls-*), against real clients: curl (HTTPS, client
# certificates), python3-grpcio (gRPC over TLS and mTLS), openssl s_client, Qt's QSslSocket (a
# connection kept across a certificate reload); certificates made by tests/testpki.
sluice_test(serve_tls REDIS LIBS Qt6::Network TIMEOUT 120)
add_dependencies(tst_serve_tls sluice-cli)
