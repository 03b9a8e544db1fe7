//! plan2code on AWS Lambda.
