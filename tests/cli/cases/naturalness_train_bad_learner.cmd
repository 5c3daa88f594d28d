naturalness train --train $SAMPLE_DB --validation $SAMPLE_DB --learner svm
